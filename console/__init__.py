"""The terminal: one module per command group, registered by cli.py; the options they share (common.py) and
the rich views (render.py, render_check.py). Commands parse, call the library, render; nothing here models."""
