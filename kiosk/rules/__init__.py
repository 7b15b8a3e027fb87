"""Pure game cores: carrom (ICF laws and club rules), the backgammon match, Bhukhar.

Standard library only; no time, pins or files are read here.
"""
