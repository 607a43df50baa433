"""Compile CUDA source to cubin with a chosen libnvrtc (ctypes). usage: nv.py LIB SRC OUT [flags...]"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
src = open(sys.argv[2]).read().encode()
prog = ctypes.c_void_p()
assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) == 0
flags = [f.encode() for f in sys.argv[4:]]
arr = (ctypes.c_char_p * len(flags))(*flags)
r = lib.nvrtcCompileProgram(prog, len(flags), arr)
n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n)); log = ctypes.create_string_buffer(n.value)
lib.nvrtcGetProgramLog(prog, log); 
if log.value.strip(): print(log.value.decode()[-3000:])
assert r == 0, r
lib.nvrtcGetCUBINSize(prog, ctypes.byref(n)); buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetCUBIN(prog, buf)
open(sys.argv[3], "wb").write(buf.raw)
maj, mnr = ctypes.c_int(), ctypes.c_int(); lib.nvrtcVersion(ctypes.byref(maj), ctypes.byref(mnr)); print("nvrtc", maj.value, mnr.value, n.value, "bytes")
