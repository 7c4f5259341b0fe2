"""Shared core of the Bedrock Agent search functions, shipped as a Lambda layer."""
