"""Package data: card libraries and example boards as ASP facts."""
