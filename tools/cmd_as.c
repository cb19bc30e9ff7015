/*
 * cmd_as.c - `vc4kit as` (not built yet).
 */
#include "tool.h"

int cmd_as(int argc, char **argv)
{
    (void)argc;
    tool_error("%s: not implemented yet", argv[0]);
    return 2;
}
