"""What an agent reads before it has the answer, where an answer is lost between retrieval and the
printed lines, question files for agent A/B runs, and the MCP server under the official SDK client."""
