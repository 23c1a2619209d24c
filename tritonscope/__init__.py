"""tritonscope: inspect the artifacts of the Triton GPU compiler."""

__version__ = "0.1.0"
