"""Publication: the TEI documents, their validation, the reports, and the HTML and PDF editions read
back from the TEI."""
