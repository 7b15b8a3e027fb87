"""Files the kiosk reads at run time, shipped inside the package (read with importlib.resources).

default.toml: the default settings, commented; `tableside config init FILE` writes a copy for an
installer to edit, and config/default.toml at the top of the checkout is the same text.
"""
