"""The compiled core, ``cardlab._core``: one C extension module built from ``csrc/*.c``.

Everything else about the package is in pyproject.toml; setuptools needs this file only
to name the extension and its sources, and to give each compiler its flags (the sources are
C11 for gcc, clang and MSVC alike: csrc/portable.h).
"""

from __future__ import annotations

import glob
import os
import re

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

sources = sorted(glob.glob(os.path.join("csrc", "*.c")))
headers = sorted(glob.glob(os.path.join("csrc", "*.h")))

FLAGS = {
    "msvc": ["/O2", "/std:c11", "/W3"],
    "unix": ["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
}


def index_readme(text: str) -> str:
    """README.md for the package index page: a picture linked by a relative path cannot show
    there (the page has no files beside it and the project no web host), so each becomes a line
    naming the picture and where it is (docs/ of the source distribution and of the repository).
    Links to pages stay as they are. The README itself keeps its pictures (docs/install.md)."""
    return re.sub(r"!\[([^\]]*)\]\((?!https?://)([^)\s]+)\)", r"*Picture: \1 (\2 in the source distribution).*", text)


with open("README.md", encoding="utf-8") as readme:
    LONG_DESCRIPTION = index_readme(readme.read())


def compile_in_parallel(compiler, jobs):
    """Make a unix compiler compile the sources of one extension on ``jobs`` threads (setuptools
    compiles them one after the other; the core is one extension of many C files, so a fresh
    set-up waits on the compiler most of its time). Each file is still one compiler process with
    the same arguments; only their order in time changes."""
    from concurrent.futures import ThreadPoolExecutor

    def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
                extra_postargs=None, depends=None):
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj):
            source, ext = build[obj]
            compiler._compile(obj, source, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(one, [obj for obj in objects if obj in build]))
        return objects

    compiler.compile = compile


class BuildExt(build_ext):
    """build_ext with the flags of the compiler actually used (MSVC's differ from gcc/clang's),
    compiling the C files in parallel with gcc and clang (one job per core)."""

    def build_extensions(self) -> None:
        flags = FLAGS["msvc" if self.compiler.compiler_type == "msvc" else "unix"]
        for extension in self.extensions:
            extension.extra_compile_args = list(flags)
        if self.compiler.compiler_type == "unix":
            compile_in_parallel(self.compiler, os.cpu_count() or 1)
        super().build_extensions()


setup(
    ext_modules=[Extension("cardlab._core", sources=sources, depends=headers, include_dirs=["csrc"])],
    cmdclass={"build_ext": BuildExt},
    long_description=LONG_DESCRIPTION,
    long_description_content_type="text/markdown",
)
