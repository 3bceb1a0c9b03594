"""Dice 1000 («Тысяча»): push-your-luck with pits, barrels and bolts."""
