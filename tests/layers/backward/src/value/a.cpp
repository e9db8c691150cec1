// A value file that includes a vm header: the edge the check must refuse.
#include "vm/b.h"
