/*
 * cmd_cl.c - `vc4kit cl` (not built yet).
 */
#include "tool.h"

int cmd_cl(int argc, char **argv)
{
    (void)argc;
    tool_error("%s: not implemented yet", argv[0]);
    return 2;
}
