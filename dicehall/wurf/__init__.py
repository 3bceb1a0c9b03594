"""Der große Wurf: throw dice into an arena and take every repeated number."""
