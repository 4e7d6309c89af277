#include "../src/device.h"
