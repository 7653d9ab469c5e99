"""`mj serve`: a local web page over the same Python API as the CLI (Starlette + uvicorn)."""
