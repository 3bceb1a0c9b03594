"""The web platform: a FastAPI server with a persisted event log, live tables, server-side bots and a lobby."""
