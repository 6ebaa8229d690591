// glibc's malloc tuning (mallopt and its parameters), which the Glibc module does not
// include.
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

#endif
