/* raise(SIGABRT) as abort() does: the process ends as the signal would. */
#include "lx.h"

long cmain(long *sp)
{
    puts1("before\n");
    long pid = sysc(20, 0, 0, 0, 0, 0, 0);
    sysc(250, pid, sysc(207, 0, 0, 0, 0, 0, 0), 6, 0, 0, 0);
    puts1("after\n");
    return 0;
}
