package lab

// nonBlock is 0: Windows has no FIFOs to wait on.
const nonBlock = 0
