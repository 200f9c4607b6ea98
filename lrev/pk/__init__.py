"""The `pk` study: primary-key lookups (seed 001, MemoryCodec)."""
