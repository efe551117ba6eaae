"""watcher: follow researchers' and labs' pages and report, item by item, what is new."""

__version__ = "0.1.0"
