"""The overhead camera: capture, calibration, detection, motion, stroke diffs."""
