"""cupti_client.py: a program that is itself a CUPTI client (as a profiler inside the program
would be): it subscribes to CUPTI before CUDA starts, then runs numba_vectorize's work. Under
varbench trace the injection must say that another CUPTI client is attached, and the program
must still run to the end, untraced.

usage: python3 cupti_client.py [LIBCUPTI]   (default /usr/local/cuda/lib64/libcupti.so)
"""
import ctypes
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else '/usr/local/cuda/lib64/libcupti.so')
handle = ctypes.c_void_p()
rc = lib.cuptiSubscribe(ctypes.byref(handle), None, None)
print('cupti_client: cuptiSubscribe -> {}'.format(rc), flush=True)
sys.argv = [sys.argv[0], '300']
sys.path.insert(0, here)
import numba_vectorize  # noqa: E402

sys.exit(numba_vectorize.main())
