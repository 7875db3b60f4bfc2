"""Organisers' reports: is the game area valid on the game day (facts, verdict) and its text and HTML pages."""
