"""What a cache holds, read as files: the cache model, the disassemblers and their cache, CUBIN/ELF reading."""
