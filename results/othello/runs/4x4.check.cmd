dfasolve check solutions/othello-4x4-reachable-strong.dfas
