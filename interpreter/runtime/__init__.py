"""What a running game needs: the compiled Program, Game, State, ops and observations. It imports
neither compile/ nor play/ (type-only imports under TYPE_CHECKING aside)."""
