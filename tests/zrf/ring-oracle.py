# ring-oracle.py DEPTH - perft of the game of tests/zrf/ring.zrf from its start, computed
# from the rules as that file's header states them, not from the file: eight positions on a
# ring, runners step to either neighbour, jumpers to the opposite position, a landing on an
# enemy captures it; a side without pieces has lost (no move follows). Prints the figures
# from depth 1, comma-separated, as tests/zrf/perft.list writes them.
import sys
N=8
def moves(board, side):
    out=[]
    for i,p in enumerate(board):
        if not p or p[0]!=side: continue
        kind=p[1]
        targets=[(i+1)%N,(i-1)%N] if kind=='R' else [(i+4)%N]
        for t in targets:
            q=board[t]
            if q and q[0]==side: continue
            out.append((i,t))
    return out
def perft(board, side, d):
    if d==0: return 1
    # a side with no pieces has lost (whoever is to move)
    for s in 'wb':
        if not any(p and p[0]==s for p in board): return 0
    ms=moves(board, side)
    total=0
    for i,t in ms:
        b=list(board); b[t]=b[i]; b[i]=None
        total+=perft(b,'b' if side=='w' else 'w',d-1)
    return total
start=[None]*N
start[0]=('w','R'); start[1]=('w','R'); start[2]=('w','J')
start[4]=('b','R'); start[5]=('b','R'); start[6]=('b','J')
print(','.join(str(perft(start,'w',d)) for d in range(1,int(sys.argv[1])+1)))
