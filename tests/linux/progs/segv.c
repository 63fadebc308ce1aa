/* Memory outside the map: argv[1] = "read" or "write" touches address 16,
 * "jump" calls address 0x100, "efault" hands bad and good buffers to write(2). */
#include "lx.h"

long cmain(long *sp)
{
    char **argv = (char **)(sp + 1);
    char *mode = argv[1];
    puts1("start\n");
    if (mode[0] == 'r')
        return *(volatile long *)16;
    if (mode[0] == 'w') {
        *(volatile long *)16 = 1;
        return 0;
    }
    if (mode[0] == 'j')
        return ((long (*)(void))0x100)();
    show("write from NULL", sysc(4, 1, 0, 5, 0, 0, 0));
    char *m = (char *)sysc(90, 0, 8192, 3, 0x22, -1, 0);
    show("write from untouched mmap", sysc(4, 1, (long)m, 3, 0, 0, 0));
    puts1("\n");
    show("read into NULL", sysc(3, 0, 0, 5, 0, 0, 0));
    show("clock_gettime to NULL", sysc(246, 0, 0, 0, 0, 0, 0));
    return 0;
}
