"""The card game's own speed benchmarks (``tcgtui perf`` finds them here): its fast path's playouts beside
the reference rules and the public engine, its search players' decision times, and scoring stored
decisions at mc:1000."""
