from ..engine.conftest import project

__all__ = ["project"]
