library(limma)
# Twelve cells' sample variances of per-round log ratios, with 2, 4 or 7 degrees of freedom.
x <- c(0.0009, 0.0025, 0.0004, 0.0016, 0.0100, 0.0036, 0.0012, 0.0049, 0.0002, 0.0030, 0.0064, 0.0020)
d <- c(2, 2, 2, 4, 2, 4, 7, 2, 4, 7, 2, 2)
f <- fitFDist(x, d)
cat(sprintf("%.12g %.12g\n", f$df2, f$scale))
s <- squeezeVar(x, d)
cat(sprintf("%.12g", s$var.post), sep=" "); cat("\n")
# Equal variances: nothing beyond sampling, d0 infinite.
y <- c(0.0020, 0.0021, 0.0019, 0.0020, 0.0022, 0.0018)
g <- fitFDist(y, rep(2, 6))
cat(sprintf("%s %.12g\n", g$df2, g$scale))
cat(as.character(packageVersion("limma")), "\n")
