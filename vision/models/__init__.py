"""The learned stage's model (vision.coin_net), read with importlib.resources."""
