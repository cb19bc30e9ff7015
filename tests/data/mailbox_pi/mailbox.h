/* The Pi program's own mailbox.h (hello_fft's declarations); its mailbox.c
 * is left out and libvc4kit provides the functions. */
#ifndef MAILBOX_PI_MAILBOX_H
#define MAILBOX_PI_MAILBOX_H
int mbox_open(void);
void mbox_close(int file_desc);
unsigned get_version(int file_desc);
unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags);
unsigned mem_free(int file_desc, unsigned handle);
unsigned mem_lock(int file_desc, unsigned handle);
unsigned mem_unlock(int file_desc, unsigned handle);
void *mapmem(unsigned base, unsigned size);
void unmapmem(void *addr, unsigned size);
unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                      unsigned r3, unsigned r4, unsigned r5);
unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                     unsigned timeout);
unsigned qpu_enable(int file_desc, unsigned enable);
#endif
