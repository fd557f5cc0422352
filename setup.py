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


class BuildExt(build_ext):
    """build_ext with the flags of the compiler actually used (MSVC's differ from gcc/clang's)."""

    def build_extensions(self) -> None:
        flags = FLAGS["msvc" if self.compiler.compiler_type == "msvc" else "unix"]
        for extension in self.extensions:
            extension.extra_compile_args = list(flags)
        super().build_extensions()


setup(
    ext_modules=[Extension("cardlab._core", sources=sources, depends=headers, include_dirs=["csrc"])],
    cmdclass={"build_ext": BuildExt},
    long_description=LONG_DESCRIPTION,
    long_description_content_type="text/markdown",
)
