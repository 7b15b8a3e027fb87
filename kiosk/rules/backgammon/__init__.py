"""The backgammon match by the tournament rules (shared/seeds/003, sections 2.2, 4.4-4.7):
score, cube, Crawford, penalty points, breaks; and the match played on a clock."""
