"""The parts beside a table: the pocket beams, the buzzer, the player display and the camera,
built from the settings (hardware.py), typed by what the kiosk calls on each (kinds.py), the
camera's feed (camera.py) and the player display's frame for each table's view
(display_frames.py). Above kiosk/engine and kiosk/tables (a part posts a table's inputs and
shows its views), below the wiring (kiosk/wiring.py, kiosk/startup.py)."""
