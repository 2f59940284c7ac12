"""Reading files: the PDF extractor, sections and page furniture, man pages, hostile inputs, the
fuzz harness, the content rules of ingestion and the detector of text addressed to a model."""
