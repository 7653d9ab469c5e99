"""The Milli-Jong catalogue: tile kinds, units and rule sets as data, plus their loader."""

from catalogue.loader import (
    Catalogue,
    CatalogueError,
    Idol,
    RuleSpec,
    Unit,
    check_file,
    check_together,
    file_notes,
    load_catalogue,
)

__all__ = ["Catalogue", "CatalogueError", "Idol", "RuleSpec", "Unit", "check_file", "check_together", "file_notes",
           "load_catalogue"]
