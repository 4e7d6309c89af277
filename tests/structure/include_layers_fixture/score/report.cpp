#include "device.h"
#include "a.h"
