.include "x"
