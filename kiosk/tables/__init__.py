"""The tables: carrom, backgammon and Bhukhar, one `Table` shape (kiosk/tables/base.py), with
the carrom stroke tracker and parts health beside them. They run on kiosk/engine."""
