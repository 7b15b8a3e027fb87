"""Pure timers: carrom turn timers and the backgammon match clock. Time is passed in."""
