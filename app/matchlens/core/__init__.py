"""Pure scoring core: no Qt, no network, no keyring."""
