"""Interfaces for people and agents: the command line, the MCP server, run reports."""
