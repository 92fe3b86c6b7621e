"""The work and its chapters: the sources of each chapter, the chapter build, and the build of the
whole work above the stages."""
