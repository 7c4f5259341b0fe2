"""Decisions made into the answers the agent reads: hits, pages and places, fitted to the budget."""
