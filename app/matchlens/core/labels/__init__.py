"""Human labels: the store, its sidecar file and where it lives, calibration against them."""
