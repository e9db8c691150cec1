"""Builds hclvm's extension module with CMake (python/CMakeLists.txt).

pip runs this through setuptools' PEP 517 backend:

    pip install --no-build-isolation --no-index ./python

Environment:
  HCLVM_PREFIX            an installed hclvm (`cmake --install BUILD --prefix
                          PREFIX`) to link; without it the library is built
                          from this checkout first (minutes).
  HCLVM_PYTHON_BUILD_DIR  CMake's build directory (default python/build/cmake).
  HCLVM_CMAKE_ARGS        more arguments for CMake's configure step.
  HCLVM_BUILD_JOBS        parallel jobs (default 2).
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    """The library's version, from the top CMakeLists.txt."""
    with open(os.path.join(HERE, "..", "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"^project\(hclvm VERSION ([0-9.]+)", f.read(), re.M).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures python/CMakeLists.txt, builds the target _hclvm and
    copies the module where setuptools expects it."""

    def build_extension(self, ext):
        cmake = shutil.which("cmake") or "cmake"
        build_dir = os.environ.get("HCLVM_PYTHON_BUILD_DIR") or os.path.join(HERE, "build", "cmake")
        os.makedirs(build_dir, exist_ok=True)
        args = [cmake, "-S", HERE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                "-DPython_EXECUTABLE=" + sys.executable]
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")) and shutil.which("ninja"):
            args += ["-G", "Ninja"]
        prefix = os.environ.get("HCLVM_PREFIX")
        if prefix:
            args.append("-DCMAKE_PREFIX_PATH=" + os.path.abspath(prefix))
        args += shlex.split(os.environ.get("HCLVM_CMAKE_ARGS", ""))
        subprocess.check_call(args)
        jobs = os.environ.get("HCLVM_BUILD_JOBS", "2")
        subprocess.check_call([cmake, "--build", build_dir, "--target", "_hclvm", "-j", jobs])
        built = glob.glob(os.path.join(build_dir, "_hclvm*.so"))
        if len(built) != 1:
            raise RuntimeError("CMake built no single _hclvm module in " + build_dir)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=version(),
    ext_modules=[CMakeExtension("hclvm._hclvm")],
    cmdclass={"build_ext": CMakeBuild},
)
