/*
 * cmd_tex.c - `vc4kit tex` (not built yet).
 */
#include "tool.h"

int cmd_tex(int argc, char **argv)
{
    (void)argc;
    tool_error("%s: not implemented yet", argv[0]);
    return 2;
}
