"""Retrieval quality and speed: BM25 against other engines, scale, the parallel workflow, multi-hop
retrieval, indexing, cold search, the command line's start-up, ``show`` and the MCP server under load."""
