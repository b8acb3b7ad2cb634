/* varbench.h compiles as C11 under -Wall -Wextra -pedantic -Werror (the public header's promise:
 * C11 and C++17 clean). */
#include <varbench.h>

int vb_header_c_compiles(void);
int vb_header_c_compiles(void)
{
    return VB_E_COUNT;
}
