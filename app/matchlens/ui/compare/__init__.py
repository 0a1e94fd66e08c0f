"""The compare tab. Keep this file free of imports: lane worker processes import the package."""
