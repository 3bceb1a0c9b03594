"""Ganz schön clever: five coloured areas, bonus chains, a silver platter and 1–4 players (or solo)."""
