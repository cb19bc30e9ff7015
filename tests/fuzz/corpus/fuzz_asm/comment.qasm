/* unterminated
