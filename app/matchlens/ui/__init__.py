"""Qt views over the pure core. Every number shown here comes from matchlens.core."""
